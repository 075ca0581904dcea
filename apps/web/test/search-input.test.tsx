import { useState } from 'react';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { SearchInput } from '../src/components/ui/SearchInput.tsx';

/** A page that keeps the trimmed search, as Rastreo and Entregas do. */
function TrimmingPage({ reported }: { reported: string[] }) {
  const [q, setQ] = useState('');
  return (
    <>
      <SearchInput
        value={q}
        onSearch={(v) => {
          reported.push(v.trim());
          setQ(v.trim());
        }}
      />
      <button type="button" onClick={() => setQ('')}>
        Limpiar
      </button>
    </>
  );
}

describe('SearchInput', { timeout: 30_000 }, () => {
  it('keeps the space a pause left behind, and still follows a reset from the page', async () => {
    const reported: string[] = [];
    const user = userEvent.setup();
    render(
      <MantineProvider>
        <TrimmingPage reported={reported} />
      </MantineProvider>,
    );
    const box = screen.getByRole('searchbox', { name: 'Buscar' });
    await user.type(box, 'luis ');
    await waitFor(() => expect(reported).toContain('luis'));
    await new Promise((r) => setTimeout(r, 50));
    await user.type(box, 'mamani');
    expect(box).toHaveValue('luis mamani');
    await waitFor(() => expect(reported.at(-1)).toBe('luis mamani'));

    await user.click(screen.getByRole('button', { name: 'Limpiar' }));
    expect(box).toHaveValue('');
  });
});
