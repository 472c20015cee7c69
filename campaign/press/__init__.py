"""What people write in a campaign: press between the powers and the GM (its channels,
rules, forms and digests by mail and push), and each user's private notes. It sits above
notify (press is announced and mailed) and beside play, which it does not import and
which does not import it."""
