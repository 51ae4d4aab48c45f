"""Second Front Now procedures for the test-play engine.

The plug-in (``play/sfn/plugin.py``) runs them after the command points [6.0]
(``command_points``) and supply [9.0] (``supply_check``) procedures:

- ``combat`` — battle-board fire [13.1-13.8] with fire modifiers [14.0-14.3] (``attack``);
- ``movement`` — box-to-map entry by box and nationality [7.3, 6.2] and strategic movement
  [12.5] (``strategic_move``);
- ``airdrop`` — plotted Allied airdrops [15.6] (``plot_drop``, ``cancel_drop``, ``airdrop``);
- ``victory`` — VP hex control and the German VP total [4.0, 11.6];
- ``replacements`` — RP, rebuilding, OOS dead pile, blooding, French limits [8.1-8.6]
  (``replace``, ``set_rp``, ``blood``);
- ``transfers`` — Italy [7.4, 7.5] and Riga-Odessa [7.6] transfers, army HQ CP [6.6]
  (``italy_transfer``, ``schedule_italy``, ``declare_riga_odessa``, ``hq_to_cp``).

Numbers and lists are in ``play/sfn/params.yaml`` (cited) unless the system file's params carry
them.
"""
