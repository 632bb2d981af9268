/** Placeholder: to be built (issue 11). */
export function PlaygroundPage() {
  return <main><h1>playground</h1></main>;
}
