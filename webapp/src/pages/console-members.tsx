/** Placeholder: to be built (issue 11). */
export function MembersPage() {
  return <main><h1>console-members</h1></main>;
}
