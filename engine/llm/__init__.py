"""The model service: one fallback call, free conversation, cards, limits.

The engine side of the model is split into small sans-IO pieces and one
async HTTP client:

* ``calls``: what a model call is (``ModelCall``) and what comes back
  (``Completion`` or ``ModelFailure``), as frozen values.
* ``prompt`` + ``tools``: the chat-completions request for a routing call
  (tools catalog, trusted ``requestContext.playerLanguage``) or a chat call.
* ``client``: ``ModelClient`` on ``httpx.AsyncClient`` with an injectable
  transport; errors are mapped once into ``ModelFailure``; the key never
  leaves it.
* ``validation``: the model's answer checked against the catalog it was given.
* ``limits``, ``modes``, ``cards``, ``render``, ``notification_buttons``: the
  per-player rules around the call.
* ``service``: ``LlmService``, the facade ``engine.assistant`` talks to.

The model is never on the tick path: the assistant returns an ``AskModel``,
its Session hands the call to the one ``ModelRunner`` it was given
(``runner``; the proxy's runs ``ModelClient.complete`` on its event loop) and,
at its next tick, hands the reply to ``LocalAssistant.model_answered``.
"""
