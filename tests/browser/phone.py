"""What a phone's reader does to reach a part of a page that is one tap away."""

from __future__ import annotations


def reveal(page, selector: str):
    """The first element of ``selector``, brought into view as a phone's reader would:
    by opening the site menu, or by the tab of the section that holds it."""
    element = page.locator(selector).first
    if element.is_visible():
        return element
    section = element.evaluate("el => el.closest('[data-section]')?.dataset.section || ''")
    if section:
        page.locator(f"label[for=show-{section}]").click()
    elif element.evaluate("el => Boolean(el.closest('.site-menu'))"):
        page.locator(".site-menu > summary").click()
    return element
