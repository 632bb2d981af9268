/**
 * The accessibility fixes of the reference docs (GET /docs): Swagger UI 5.35 (swagger-ui-dist)
 * as shipped breaks WCAG checks that axe-core reports as serious or critical, on the page as
 * first shown (test/browser/axe-pages.test.ts allows none) and with operations opened, "Try it
 * out", an answer and the Authorize dialog (test/browser/docs-accessibility.test.ts). Two files
 * of the page, served by routes/docs.ts next to /docs/swagger-init.js:
 * - /docs/swagger-a11y.js: a Swagger UI plugin through its documented `wrapComponents` API, which
 *   defines `docsAccessibilityPlugin` (swagger-init.js passes it in `plugins`). Most fixes are
 *   props or elements around Swagger UI's components; where a component passes no props on to
 *   the element at fault, a wrapper's React ref sets one attribute on it once mounted (no
 *   observer of the whole page);
 * - /docs/a11y.css: colour overrides, loaded after swagger-ui.css.
 * Each fix names the axe rule it answers. The upstream reports (swagger-api/swagger-ui: the
 * servers select without a name, contrast of the method badges, version badges, links and the
 * Authorize button) are open, so the fixes stay here until a release of swagger-ui-dist has them.
 */

/**
 * The script served as /docs/swagger-a11y.js: defines `docsAccessibilityPlugin(system)`, a
 * Swagger UI plugin returning `{ wrapComponents }`. Loaded after swagger-ui-bundle.js and before
 * swagger-init.js (a classic script: its top-level function is a global of the page).
 */
export const DOCS_A11Y_SCRIPT = `'use strict';
// Accessibility fixes of Swagger UI at /docs (api/http/routes/docs-accessibility.ts explains them).
function docsAccessibilityPlugin(system) {
  const h = system.React.createElement;
  // axe select-name (critical): the servers select is wrapped in <label for="servers"> with no
  // text, so it has no accessible name. The visible caption "Servers" is a sibling span outside
  // the component; the select gets that caption as its aria-label once mounted. The wrapper is
  // display: contents (a11y.css), so the layout does not change.
  const nameServerSelect = (wrapper) => {
    const select = wrapper && wrapper.querySelector('select#servers');
    if (select && !select.hasAttribute('aria-label')) select.setAttribute('aria-label', 'Servers');
  };
  const labelled = (Original, props) =>
    h('label', { className: 'docs-field' }, h('span', { className: 'docs-visually-hidden' }, props.description || ''), h(Original, props));
  const focusableCode = (wrapper) => {
    if (wrapper) for (const pre of wrapper.querySelectorAll('pre.microlight')) pre.tabIndex = 0;
  };
  const nameResponses = (wrapper, props) => {
    const table = wrapper && wrapper.querySelector('table.responses-table[role="region"]');
    if (table && !table.hasAttribute('aria-label')) table.setAttribute('aria-label', 'Responses of ' + String(props.method).toUpperCase() + ' ' + props.path);
  };
  return {
    wrapComponents: {
      // axe nested-interactive (serious): with deepLinking on, the path in each operation's
      // summary is a link (<a href="#/Tag/operationId">) inside the summary's <button>, the
      // control that opens the operation. Told deep linking is off, Swagger UI's DeepLink draws
      // the path as an <a> without href, which is no link. Deep links still work: opening an
      // operation sets the same #/Tag/operationId in the address bar, and a page opened with it
      // opens that operation.
      OperationSummaryPath: (Original) => (props) =>
        h(Original, Object.assign({}, props, { operationProps: props.operationProps.set('isDeepLinkingEnabled', false) })),
      // axe select-name (critical): see nameServerSelect.
      Servers: (Original) => (props) => h('div', { className: 'docs-servers', ref: nameServerSelect }, h(Original, props)),
      // axe region (moderate): the title block and the servers/authorize bar sit outside every
      // landmark (Swagger UI puts only the operations in <main>). The title block becomes the
      // page's banner, the servers a named region.
      InfoContainer: (Original) => (props) => h('header', { role: 'banner' }, h(Original, props)),
      ServersContainer: (Original) => (props) => h('div', { role: 'region', 'aria-label': 'Servers' }, h(Original, props)),
      // axe heading-order (moderate): the title is an <h1> and each tag an <h3>; an <h2>
      // "Operations" (visually hidden) closes the gap.
      operations: (Original) => (props) =>
        h(system.React.Fragment, null, h('h2', { className: 'docs-visually-hidden' }, 'Operations'), h(Original, props)),
      // Below: an opened operation, "Try it out" and its answer (the page as first shown has none).
      // axe select-name (critical): a parameter with an enum (or a boolean) is a <select> that
      // Swagger UI's Select leaves without a name (it passes on no aria props), while text
      // parameters are named by their placeholder, the parameter's name. The select is wrapped
      // in a <label> holding that name, visually hidden.
      JsonSchema_string: (Original) => (props) => (props.schema && props.schema.get && props.schema.get('enum') ? labelled(Original, props) : h(Original, props)),
      JsonSchema_boolean: (Original) => (props) => labelled(Original, props),
      // axe label (critical): the request body editor of "Try it out" is a <textarea> without a
      // name; Swagger UI's TextArea passes its props on, so it gets an aria-label.
      TextArea: (Original) => (props) =>
        h(Original, String(props.className || '').split(' ').includes('body-param__text') && !props['aria-label'] ? Object.assign({}, props, { 'aria-label': 'Request body' }) : props),
      // axe scrollable-region-focusable (serious): examples and answers are <pre> blocks that
      // scroll (max-height 400px) but cannot take the focus, so a keyboard cannot scroll them.
      // Each gets tabindex="0" when its block mounts (wrapper display: contents, a11y.css).
      HighlightCode: (Original) => (props) => h('div', { className: 'docs-code', ref: focusableCode }, h(Original, props)),
      // axe landmark-unique (moderate): each opened operation's responses table is a region
      // (role="region") without a name; it is named after its operation once mounted.
      responses: (Original) => (props) =>
        h('div', { className: 'docs-responses', ref: (wrapper) => nameResponses(wrapper, props) }, h(Original, props)),
      // The Authorize dialog. axe button-name (critical): its close button holds only an icon
      // (CloseIcon, used nowhere else), so the icon gets a visually hidden "Close" beside it.
      // axe region (moderate): the dialog, outside every landmark, becomes a named dialog.
      CloseIcon: (Original) => (props) =>
        h(system.React.Fragment, null, h(Original, props), h('span', { className: 'docs-visually-hidden' }, 'Close')),
      authorizationPopup: (Original) => (props) =>
        h('div', { role: 'dialog', 'aria-modal': 'true', 'aria-label': 'Available authorizations' }, h(Original, props)),
      // axe label-content-name-mismatch (serious, WCAG 2.5.3): the dialog's Authorize and Logout
      // buttons are named "Apply credentials" and "Remove authorization", which do not hold the
      // words they show; a button whose name lacks its own text is named by the text, the old
      // name after it ("Authorize (apply credentials)").
      Button: (Original) => (props) => {
        const text = typeof props.children === 'string' ? props.children : '';
        const label = String(props['aria-label'] || '');
        return text && label && !label.toLowerCase().includes(text.toLowerCase())
          ? h(Original, Object.assign({}, props, { 'aria-label': text + ' (' + label.toLowerCase() + ')' }))
          : h(Original, props);
      },
    },
  };
}
`;

/**
 * The stylesheet served as /docs/a11y.css (after swagger-ui.css). axe color-contrast (serious,
 * WCAG 1.4.3: 4.5:1 for text below 18.66px bold): the same hues darkened until white text on
 * them (or they as text on white) reaches 4.6:1. Only Swagger UI's light theme: its dark mode
 * (`html.dark-mode`) has a palette of its own.
 */
export const DOCS_A11Y_STYLES = `/* Accessibility overrides of Swagger UI at /docs (api/http/routes/docs-accessibility.ts). */

/* axe color-contrast: white method names on the method badges (2.0:1 to 3.6:1 before). */
html:not(.dark-mode) .swagger-ui .opblock.opblock-get .opblock-summary-method { background: #0172e3; }
html:not(.dark-mode) .swagger-ui .opblock.opblock-post .opblock-summary-method { background: #258358; }
html:not(.dark-mode) .swagger-ui .opblock.opblock-put .opblock-summary-method { background: #ad6103; }
html:not(.dark-mode) .swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #e80707; }
html:not(.dark-mode) .swagger-ui .opblock.opblock-patch .opblock-summary-method { background: #15836a; }

/* axe color-contrast: the version badges beside the title (3.8:1 and 2.2:1 before). */
html:not(.dark-mode) .swagger-ui .info .title small { background: #6e7583; }
html:not(.dark-mode) .swagger-ui .info .title small.version-stamp { background: #5a7e03; }

/* axe color-contrast: links in the title block, the document's URL among them (3.3:1 before). */
html:not(.dark-mode) .swagger-ui .info a { color: #2274d4; }
html:not(.dark-mode) .swagger-ui .info a:hover { color: #1a5aa6; }

/* axe color-contrast: the Authorize button's green text on white (2.0:1 before). */
html:not(.dark-mode) .swagger-ui .btn.authorize { border-color: #258358; color: #258358; }
html:not(.dark-mode) .swagger-ui .btn.authorize svg { color: #258358; }

/* axe color-contrast, an opened operation: "in" of each parameter (grey, 3.7:1 before),
   "Execute" (white on #4990e2, 3.3:1), "Cancel" (#ff6060, 2.9:1), "Download" (3.7:1) and the
   schemas' "Expand all" (#afaeae on #efefef, 1.9:1). The code theme is swagger-init.js's
   syntaxHighlight.theme: the default, agate, draws numbers at 3.0:1. */
html:not(.dark-mode) .swagger-ui .parameter__in,
html:not(.dark-mode) .swagger-ui .parameter__extension { color: #595959; }
html:not(.dark-mode) .swagger-ui .btn.execute { background-color: #2274d4; border-color: #2274d4; }
html:not(.dark-mode) .swagger-ui .btn.cancel { border-color: #c81e1e; color: #c81e1e; }
html:not(.dark-mode) .swagger-ui .download-contents { background: #6e7583; }
html:not(.dark-mode) .swagger-ui .json-schema-2020-12-expand-deep-button { color: #595959; }

/* The wrappers that name the servers select and the responses tables, and make code blocks
   focusable, add no box. */
.swagger-ui .docs-servers,
.swagger-ui .docs-code,
.swagger-ui .docs-responses { display: contents; }

/* Read by screen readers, not shown: the "Operations" heading (axe heading-order). */
.swagger-ui .docs-visually-hidden {
  position: absolute;
  width: 1px;
  height: 1px;
  margin: -1px;
  padding: 0;
  overflow: hidden;
  clip: rect(0 0 0 0);
  white-space: nowrap;
  border: 0;
}
`;
