"""The model of a build: what it is asked for, what it plans, the kinds of output it makes, what it
knows of the last build, and what a long-lived process keeps for the next one.
"""
