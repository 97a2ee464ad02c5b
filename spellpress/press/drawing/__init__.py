"""The drawing: a card's layout to a display list, and display lists to PDF and PNG (sheets, rulebooks, playmats, tokens)."""
