/** Placeholder: to be built (issue 11). */
export function ProjectsPage() {
  return <main><h1>projects</h1></main>;
}
