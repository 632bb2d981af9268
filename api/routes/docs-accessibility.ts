/**
 * The accessibility fixes of the reference docs (GET /docs): Swagger UI 5.35 (swagger-ui-dist)
 * as shipped breaks WCAG checks that axe-core reports as serious or critical (the test of every
 * page, test/browser/axe-pages.test.ts, allows none). Two files of the page, served by
 * routes/docs.ts next to /docs/swagger-init.js:
 * - /docs/swagger-a11y.js: a Swagger UI plugin (its documented `wrapComponents` API, no DOM
 *   patching after render) that defines `docsAccessibilityPlugin`, which swagger-init.js passes
 *   in `plugins`;
 * - /docs/a11y.css: colour overrides, loaded after swagger-ui.css.
 * Each fix names the axe rule it answers. The upstream reports are open (swagger-api/swagger-ui:
 * the servers select without a name, contrast of the method badges, version badges, links and
 * the Authorize button), so the fixes stay here until a release of swagger-ui-dist has them.
 */

/**
 * The script served as /docs/swagger-a11y.js: defines `docsAccessibilityPlugin(system)`, a
 * Swagger UI plugin returning `{ wrapComponents }`. Loaded after swagger-ui-bundle.js and before
 * swagger-init.js (a classic script: its top-level function is a global of the page).
 */
export const DOCS_A11Y_SCRIPT = `'use strict';
// Accessibility fixes of Swagger UI at /docs (api/routes/docs-accessibility.ts explains them).
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
  return {
    wrapComponents: {
      // axe nested-interactive (serious): with deepLinking on, the path in each operation's
      // summary is a link (<a href="#/Tag/operationId">) inside the summary's <button>, the
      // control that opens the operation. The path is shown as plain text instead; deep links
      // still work, since opening an operation sets the same #/Tag/operationId in the address bar
      // and a page opened with it opens that operation.
      OperationSummaryPath: (Original) => (props) =>
        h(Original, Object.assign({}, props, { operationProps: props.operationProps.set('isDeepLinkingEnabled', false) })),
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
export const DOCS_A11Y_STYLES = `/* Accessibility overrides of Swagger UI at /docs (api/routes/docs-accessibility.ts). */

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

/* The wrapper that names the servers select adds no box of its own. */
.swagger-ui .docs-servers { display: contents; }

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
