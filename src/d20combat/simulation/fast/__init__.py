"""The simulation fast path (issue 4): a compiled replica of the reference engine for Monte Carlo."""
