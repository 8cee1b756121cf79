export default function Page() {
  return <h1>invite-accept</h1>;
}
