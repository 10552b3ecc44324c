"""What the result objects share: the JSON document and the text report of one shufl run."""

from __future__ import annotations

import json


class _Report:
    """Holds ``doc`` (the run's JSON document, a dict) and ``text`` (its text report); pickles
    as the two; ``str()`` is the text. Subclasses add the properties their document has."""

    def __init__(self, doc: dict, text: str):
        self._doc = doc
        self._text = text

    # Pickling keeps the document and the text; __init__ rebuilds the rest from them.
    def __getstate__(self):
        return {"doc": self._doc, "text": self._text}

    def __setstate__(self, state):
        self.__init__(state["doc"], state["text"])

    @property
    def text(self) -> str:
        return self._text

    def __str__(self) -> str:
        return self._text

    def _doc_copy(self) -> dict:
        """A new deep copy of the document (through JSON, as the CLI would write it)."""
        return json.loads(json.dumps(self._doc))
