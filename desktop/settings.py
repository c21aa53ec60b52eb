# The desktop's settings: settings.toml beside code.py (as CircuitPython's
# os.getenv reads it), and the variables of the environment, each checked
# when the program starts: a bad one is a one-line message, never a
# traceback, and never one after a whole run.

import os

from hardware.profiles import SetupError

FILE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "settings.toml")


def setting(name):
    """A SPIT_* setting on the desktop: the environment's, else settings.toml's."""
    value = os.getenv(name)
    return file_setting(name) if value is None else value


def file_setting(name, path=None):
    """A value of settings.toml beside code.py, as CircuitPython's os.getenv reads it."""
    import tomllib

    path = path or FILE
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


def number(env, name, low, high, default):
    # A number setting of the environment (a fraction allowed), checked.
    text = env.get(name)
    if text in (None, ""):
        return default
    try:
        value = float(text)
    except ValueError:
        value = None
    if value is None or not low <= value <= high:
        raise SetupError("%s is a number from %g to %g, not %r" % (name, low, high, text))
    return value


def file_to_write(env, name, what):
    # A file a run writes (SPIT_SHOT, SPIT_SOUND_LOG): refused now if it
    # cannot be written, not after the whole run.
    path = env.get(name)
    if not path:
        return None
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise SetupError("%s %s is a folder: name %s" % (name, path, what))
    if not os.path.isdir(folder):
        raise SetupError("%s %s: its folder %s does not exist" % (name, path, folder))
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise SetupError("%s %s cannot be written here" % (name, path))
    return path
