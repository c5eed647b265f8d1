"""Tiled (.tmx) battle maps: the only place that reads Tiled's formats."""
