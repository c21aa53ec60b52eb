# The desktop's room: what the board never loads. The simulator's window and
# sound, the keyboard and replays standing in for the buttons, the settings
# file, the flash model of nvm and the keypad's scan times (the board VM's
# stand-ins use those two). hardware/ is what the board runs; `make flash`
# ships it whole. What each SPIT_* variable does: docs/simulator.md.
