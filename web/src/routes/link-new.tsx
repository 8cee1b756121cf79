export default function Page() {
  return <h1>link-new</h1>;
}
