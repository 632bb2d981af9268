/** Placeholder: to be built (issue 11). */
export function JobsPage() {
  return <main><h1>jobs</h1></main>;
}
