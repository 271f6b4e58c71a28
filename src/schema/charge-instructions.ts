// What the customer reads after createCharge, in English (displayText) and in
// French (displayTextFr), never mixed. The operator's display_text comes in
// whatever language(s) the operator writes (the sandbox's, like many operators',
// is "French / English" in one string), so the gateway writes its own sentence
// for the next action and carries over the one thing only the operator knows:
// the USSD code to dial.
import type { Text } from '../errors/top-level.js';

/** What the customer must do next for a charge: enter an OTP, dial a USSD code then enter the OTP, confirm on the phone, or nothing. */
export type NextAction = 'ENTER_OTP' | 'DIAL_USSD_THEN_ENTER_OTP' | 'CONFIRM_ON_PHONE' | 'NONE';

/** A USSD code such as *144*4*6*2500#. */
const USSD_CODE = /\*[0-9*]+#/;

/**
 * The words to show the customer for a charge's next action, in English and French, with the USSD code taken from the operator's text when
 * it has one.
 */
export function chargeInstructions(nextAction: NextAction, operatorText: string): Text {
  const code = USSD_CODE.exec(operatorText)?.[0] ?? null;
  switch (nextAction) {
    case 'DIAL_USSD_THEN_ENTER_OTP':
      return code
        ? { en: `Dial ${code} to get your OTP, then enter it.`, fr: `Composez ${code} pour obtenir votre code OTP, puis saisissez-le.` }
        : {
            en: 'Dial the USSD code of your operator to get your OTP, then enter it.',
            fr: 'Composez le code USSD de votre opérateur pour obtenir votre code OTP, puis saisissez-le.',
          };
    case 'ENTER_OTP':
      return {
        en: 'An OTP was sent to you by SMS: enter it to confirm the payment.',
        fr: 'Un code OTP vous a été envoyé par SMS : saisissez-le pour confirmer le paiement.',
      };
    case 'CONFIRM_ON_PHONE':
      return code
        ? { en: `Dial ${code} and confirm with your PIN.`, fr: `Composez ${code} et validez avec votre code secret.` }
        : {
            en: 'Approve the payment in the prompt shown on your phone.',
            fr: 'Validez le paiement dans la demande affichée sur votre téléphone.',
          };
    case 'NONE':
      return { en: 'Nothing more to do: the payment is finished.', fr: 'Plus rien à faire : le paiement est terminé.' };
  }
}
