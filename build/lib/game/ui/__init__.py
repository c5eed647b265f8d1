"""The pygame user interface: draws engine state and sends actions."""
