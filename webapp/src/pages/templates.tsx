/** Placeholder: to be built (issue 11). */
export function TemplatesPage() {
  return <main><h1>templates</h1></main>;
}
