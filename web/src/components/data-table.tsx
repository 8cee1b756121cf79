import type { ReactNode } from 'react';

/**
 * One column of a DataTable. On a wide screen every column is a table column. On a phone each row
 * becomes a card: the `title` column leads it in full width, `wide` columns take a line of their
 * own, the others sit side by side after their `label`, and `hidden` ones are left out (what they
 * say is elsewhere in the card, or not worth a phone's room).
 */
export interface Column<T> {
  key: string;
  /** The header cell; a string also labels the value on a phone. */
  header: ReactNode;
  /** The label on a phone and for screen readers, when the header is not plain text. */
  label?: string;
  cell: (row: T) => ReactNode;
  /** Right-aligned figures. */
  numeric?: boolean;
  phone?: 'title' | 'wide' | 'hidden' | 'unlabelled';
  /** Extra attributes of the cell (a title to read a cut value in full, a class). */
  cellProps?: (row: T) => { title?: string; className?: string };
}

/**
 * The dashboard's tables: a scrollable, labelled region holding a plain table on a wide screen
 * and a list of cards on a phone (styles.css, `.data-table`), from the same markup, so a row's
 * cells, their labels and the tests' roles stay the same at every width.
 */
export function DataTable<T>({ label, columns, rows, rowKey, caption }: {
  /** The region's accessible name, e.g. "Links". */
  label: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  caption?: string;
}) {
  const labelOf = (c: Column<T>) => c.label ?? (typeof c.header === 'string' ? c.header : undefined);
  return (
    <div className="table-wrap" role="region" aria-label={label} tabIndex={0}>
      <table className="data-table">
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col" className={c.numeric ? 'num' : undefined}>
                {c.header === '' ? <span className="sr-only">{labelOf(c)}</span> : c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c) => {
                const extra = c.cellProps?.(row);
                const classes = [c.numeric ? 'num' : '', c.phone ? `phone-${c.phone}` : '', extra?.className ?? ''].filter(Boolean).join(' ');
                const phoneLabel = !c.phone && c.header !== '' ? labelOf(c) : undefined;
                return (
                  <td key={c.key} className={classes || undefined} title={extra?.title} data-label={phoneLabel}>
                    {c.cell(row)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
