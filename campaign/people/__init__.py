"""The users and their seats: accounts (sign-up, login, password checks and reset, mail
address confirmation, user names), the home page of one's campaigns and their calendar
feed, the lobby where free seats are asked for, the GM team (co-GMs, handovers, quiet
GMs), and each user's personal data (its download, the account's deletion). It is a top
layer: it starts and joins campaigns through play and shows press, but neither play nor
press knows about it."""
