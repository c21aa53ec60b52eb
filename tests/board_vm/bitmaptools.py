# The board's bitmaptools, as far as the game uses it: readinto, with the
# firmware's reading (shared-module/bitmaptools/__init__.c): each row is the
# fewest element_size-byte elements that hold bitmap.width pixels, a short
# read is an EOFError, and each value is masked to the bitmap's bits.


def readinto(
    bitmap,
    file,
    bits_per_pixel,
    element_size=1,
    reverse_pixels_in_element=False,
    swap_bytes_in_element=False,
    reverse_rows=False,
):
    if bits_per_pixel not in (1, 2, 4, 8):
        raise NotImplementedError("the stand-in reads 1, 2, 4 or 8 bits a pixel")
    if element_size not in (1, 2, 4):
        raise ValueError("element_size must be 1, 2 or 4")
    if swap_bytes_in_element and element_size != 1:
        raise NotImplementedError("the stand-in does not swap bytes")
    width = bitmap.width
    height = bitmap.height
    mask = (1 << bitmap.bits_per_value) - 1
    per = element_size * 8
    rowsize = element_size * ((width * bits_per_pixel + per - 1) // per)
    per_byte = 8 // bits_per_pixel
    low = (1 << bits_per_pixel) - 1
    for y in range(height):
        row = file.read(rowsize)
        if row is None or len(row) != rowsize:
            raise EOFError()
        y_draw = height - 1 - y if reverse_rows else y
        for x in range(width):
            k = x % per_byte
            if reverse_pixels_in_element:
                k = per_byte - 1 - k
            value = (row[x // per_byte] >> (k * bits_per_pixel)) & low
            bitmap.set(y_draw * width + x, value & mask)
