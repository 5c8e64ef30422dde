// The page's translations for the JavaScript (Django's JavaScriptCatalog at /jsi18n/, loaded by web/base.html
// before any module): mark a message with gettext("...") where it is written, so `manage.py translations` finds
// it; interpolate(fmt, {name: value}, true) fills %(name)s. Without the catalog (a page that did not load it) the
// English source text is shown.
export const gettext = globalThis.gettext || ((text) => text);
export const ngettext = globalThis.ngettext || ((one, many, n) => (n === 1 ? one : many));
export const interpolate = globalThis.interpolate
  || ((fmt, values, named) => (named ? fmt.replace(/%\((\w+)\)s/g, (_, key) => String(values[key])) : fmt));
export const pgettext = globalThis.pgettext || ((context, text) => text);
