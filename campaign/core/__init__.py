"""The rules every layer obeys: how a change is made (in one transaction under the
campaign's lock, refused once the campaign has ended), who may read which orders
(sealing) and which hidden state (watching), when a phase is ready to resolve, and which
orders stand. It imports only the models and the errors, beside state at the bottom."""
