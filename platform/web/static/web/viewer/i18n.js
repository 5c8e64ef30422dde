// The viewer's user-facing text goes through t(): Django's JavaScript catalog (window.gettext, from
// JavaScriptCatalog) when the page loads one, the English text otherwise. One place to find every string.
export function t(text) {
  return typeof window.gettext === "function" ? window.gettext(text) : text;
}
