"""The model of a build: what it is asked for, what it plans, the kinds of output it makes, and what it knows of the last build."""
