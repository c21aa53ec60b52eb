# The board's tones on the desktop, through pygame's mixer.

from .window import Quiet


class DesktopSound:
    """The board's tones through pygame's mixer: a looped wave a pitch, made once."""

    def __init__(self, pygame):
        import numpy

        from hardware.feedback import PITCHES

        rate = pygame.mixer.get_init()[0]
        self.sounds = [None]
        for hz in PITCHES[1:]:
            t = numpy.arange(rate // 10) / rate  # a tenth of a second, looped
            wave = (numpy.sign(numpy.sin(2 * numpy.pi * hz * t)) * 6000).astype(numpy.int16)
            channels = pygame.mixer.get_init()[2]
            self.sounds.append(pygame.sndarray.make_sound(numpy.repeat(wave[:, None], channels, axis=1)))
        self.channel = None

    def set_volume(self, volume):
        for sound in self.sounds[1:]:
            sound.set_volume(0.15 if volume == 1 else 0.6)

    def tone(self, pitch):
        self.quiet()
        self.channel = self.sounds[pitch].play(loops=-1)

    def quiet(self):
        if self.channel is not None:
            self.channel.stop()
            self.channel = None


def desktop_sound(pygame):
    # pygame's mixer when this machine can make a sound; else silence, never an error.
    try:
        with Quiet():
            pygame.mixer.init()
        return DesktopSound(pygame)
    except Exception as e:  # no audio device, or no driver for one
        print("no sound: %s" % e)
        return None
