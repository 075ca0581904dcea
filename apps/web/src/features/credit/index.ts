/** What other features use of 'Crédito': the ageing of the credit accounts (Cuentas por cobrar shows it). */
export { AgeingView } from './components/AgeingView.tsx';
