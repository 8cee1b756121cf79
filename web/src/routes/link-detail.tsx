export default function Page() {
  return <h1>link-detail</h1>;
}
