"""Local semantic routing of chat addressed to the assistant.

Pipeline (``router.py``): structured option number → explicit phrase → the
player's exact intent cache → vocabulary + TF-IDF matching (``semantic_index``)
→ one model call for what stays uncertain (``model_hook``). Similarity is never
authorization: only read-only modules can be chosen locally.
"""
