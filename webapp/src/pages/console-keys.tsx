/** Placeholder: to be built (issue 11). */
export function KeysPage() {
  return <main><h1>console-keys</h1></main>;
}
