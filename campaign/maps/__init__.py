"""The campaign map's geometry: area shapes and label places built once per scenario
(``manage.py build_map``) and stored beside it, and the reading of what was built."""
