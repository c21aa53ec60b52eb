"""Stand-in for CircuitPython's bitmaptools: blit, the one call bitmap_label makes."""


def blit(dest, source, x, y, *, x1=0, y1=0, x2=None, y2=None, skip_source_index=None, skip_dest_index=None):
    # Copy source's rectangle (x1, y1)-(x2, y2) to dest at (x, y), clipped to
    # dest, skipping the source value skip_source_index and the dest pixels
    # that hold skip_dest_index. Allocates nothing, like the C original.
    if x2 is None:
        x2 = source.width
    if y2 is None:
        y2 = source.height
    sy = y1
    while sy < y2:
        dy = y + sy - y1
        if 0 <= dy < dest.height:
            sx = x1
            while sx < x2:
                dx = x + sx - x1
                if 0 <= dx < dest.width:
                    v = source.get(sy * source.width + sx)
                    if v != skip_source_index:
                        at = dy * dest.width + dx
                        if skip_dest_index is None or dest.get(at) != skip_dest_index:
                            dest.set(at, v)
                sx += 1
        sy += 1
