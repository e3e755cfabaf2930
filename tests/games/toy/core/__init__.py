"""The toy game's rules, in the template every game follows (a ruleset and its design space)."""
