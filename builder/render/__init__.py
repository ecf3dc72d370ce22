"""Renderers: SVG card artwork and friends."""
