"""The print pipeline: card layouts to display lists, drawn as PDF sheets and PNG images.

Its rooms, each importing only from those before it: drawing/ (a layout to a display list, display
lists to PDF and PNG), model/ (what a build is asked for, its plan, its kinds of output, what it
knows of the last build), outputs/ (each file listed, made by a job in a worker, moved into place)
and runners/ (one build, watch, the resident builder). cli.py reads the command line; files.py
writes whole files, for every room.
"""
