"""What every game shares: errors, record I/O, the game protocol and registry."""
