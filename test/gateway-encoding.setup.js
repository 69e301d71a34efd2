// Runs before each suite of the gateway-encoding pass (test/config/jest.gateway.config.js): startEmulator()
// and `dqform emulator` take their defaults from these (src/emulator/app.ts wireModeOf), and
// child processes inherit them.
process.env.DQ_EMULATOR_MARSHAL = 'emit-unpopulated';
process.env.DQ_EMULATOR_ENUMS = 'numbers';
