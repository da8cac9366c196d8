package grid

// exchange.go resolves a multi-rank GPU variant's exchange parameter
// (comm.ExchangeModes) for one case, the same way on every rank.

import (
	"os"
	"strconv"

	"github.com/bfsbench/bfsbench/harness/comm"
	"github.com/bfsbench/bfsbench/harness/sdk"
)

// SelectExchange resolves param (auto, device or host; comm.SelectExchange)
// on every rank of world for a CUDA case of cfg and makes the ranks agree:
// the device path only where every rank can take it. Ranks in one process
// count as sharing this machine's GPUs; under mpirun, Open MPI's
// OMPI_COMM_WORLD_LOCAL_SIZE says how many share the node. It returns the
// mode and why it was chosen. Collective over world.
func SelectExchange(cfg sdk.Config, world comm.Comm, param string) (mode, why string, err error) {
	local := world.Size() // ranks in this process
	if cfg.Launcher == sdk.LauncherMPIRun {
		local = 1
		if n, e := strconv.Atoi(os.Getenv("OMPI_COMM_WORLD_LOCAL_SIZE")); e == nil && n > 0 {
			local = n
		}
	}
	mode, why, err = comm.SelectExchange(param, true, world.Size(), local)
	if err := comm.Agree(world, err); err != nil {
		return "", "", err
	}
	device := int64(0)
	if mode == comm.ExchangeDevice {
		device = 1
	}
	all, err := comm.AllreduceInt64(world, device, comm.Min)
	if err != nil {
		return "", "", err
	}
	if all == 0 && mode == comm.ExchangeDevice {
		mode, why = comm.ExchangeHost, "another rank cannot take the device path"
	}
	return mode, why, nil
}
