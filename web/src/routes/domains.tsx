export default function Page() {
  return <h1>domains</h1>;
}
