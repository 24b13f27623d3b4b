"""The browser board of ``savanna serve``: the server (``server``), its tables (``tables``),
analyses (``analysis``), served files (``files``) and the page (``static/``)."""
