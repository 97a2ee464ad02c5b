"""The outputs: each file of a build listed, made by a job in a worker process, and moved into place."""
