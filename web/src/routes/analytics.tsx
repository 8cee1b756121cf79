export default function Page() {
  return <h1>analytics</h1>;
}
