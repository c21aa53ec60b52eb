# The desktop's settings: settings.toml beside code.py (as CircuitPython's
# os.getenv reads it), and whole-number variables of the environment, checked.

import os

from hardware.profiles import SetupError


def setting(name):
    """A SPIT_* setting on the desktop: the environment's, else settings.toml's."""
    value = os.getenv(name)
    return file_setting(name) if value is None else value


def file_setting(name, path=None):
    """A value of settings.toml beside code.py, as CircuitPython's os.getenv reads it."""
    import tomllib

    path = path or os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "settings.toml")
    try:
        with open(path, "rb") as f:
            value = tomllib.load(f).get(name)
    except (OSError, tomllib.TOMLDecodeError):
        return None
    return None if value is None else str(value)


def whole(env, name, low, high, default):
    # A whole-number setting of the environment, checked.
    text = env.get(name)
    if text in (None, ""):
        return default
    if not text.isdigit() or not low <= int(text) <= high:
        raise SetupError("%s is a whole number from %d to %d, not %r" % (name, low, high, text))
    return int(text)
