/** Placeholder: to be built (issue 11). */
export function VehiclesPage() {
  return <main><h1>vehicles</h1></main>;
}
