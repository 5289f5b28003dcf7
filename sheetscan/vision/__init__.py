"""Everything that touches pixels: reading photos of sheets, and drawing forms and test photos.

The only package that imports cv2 (STYLE.md §1).
"""
