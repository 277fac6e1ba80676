# capture
