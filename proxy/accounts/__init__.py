"""The player's Microsoft account: sign-in, the token cache and its refresh, the CLI.

``store.AccountStore`` is the API (``login``, ``session``, ``accounts``,
``logout``, ``secrets``); ``settings.AccountSettings`` is the ``accounts``
section of proxy.json; ``errors`` holds every failure a player can meet; the
steps of the sign-in are ``microsoft`` (OAuth via msal), ``xbox`` (Xbox Live,
XSTS) and ``minecraft_services``; ``cache`` is the token file. The
``mcagent login|accounts|logout`` commands are ``proxy.operations.accounts_cli``; the
reactor's view of the store is ``proxy.connection.account_source``. Nothing is imported
here, so loading the config (which needs only ``settings``) does not load msal.

May import: ``proxy.protocol`` and ``proxy.codec`` (the chat key's signing).
"""
