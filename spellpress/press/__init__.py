"""The print pipeline: card layouts to display lists, drawn as PDF sheets and PNG images."""
