"""Draws the pictures of the guide with the library itself: python docs/make_pictures.py"""

from pathlib import Path

from nimbers.tables import mul_table, table_image

if __name__ == "__main__":
    table_image(mul_table(256), Path(__file__).parent / "mul_table_256.png", scale=2)
