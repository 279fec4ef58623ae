"""Pure resolution functions: no I/O, no hidden state, dice passed in."""
