/** Placeholder: to be built (issue 11). */
export function JobPage() {
  return <main><h1>job</h1></main>;
}
