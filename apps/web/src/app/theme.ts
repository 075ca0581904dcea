import { createTheme } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'teal',
  primaryShade: 7,
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  defaultRadius: 'sm',
  components: {
    Table: { defaultProps: { striped: true, highlightOnHover: true, verticalSpacing: 6, fz: 'sm' } },
    TextInput: { defaultProps: { size: 'sm' } },
    Select: { defaultProps: { size: 'sm', allowDeselect: false, comboboxProps: { withinPortal: true } } },
    Button: { defaultProps: { size: 'sm' } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Cerrar' }, size: 'md' } },
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Cerrar' } } },
  },
});
