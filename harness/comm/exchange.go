package comm

// exchange.go chooses how a multi-rank GPU variant exchanges its messages
// (the exchange parameter): device to device over NCCL, or staged through
// host memory over the host communicator.

import (
	"errors"
	"fmt"

	"github.com/bfsbench/bfsbench/harness/cuda"
)

// Exchange modes.
const (
	ExchangeAuto   = "auto"   // device where it can run, else host
	ExchangeDevice = "device" // NCCL between device buffers
	ExchangeHost   = "host"   // copies to host memory and the host communicator
)

// ExchangeModes are the values of the exchange parameter.
var ExchangeModes = []string{ExchangeAuto, ExchangeDevice, ExchangeHost}

// ExchangeHelp is the help text of a variant's exchange parameter.
const ExchangeHelp = "CUDA, several ranks: how messages between GPUs travel: device, device to device over NCCL (libnccl.so.2, loaded at run time), on a stream of their own; host, copied to host memory and sent over the host communicator (in process, or Open MPI under mpirun); auto: device where NCCL loads and this machine has several GPUs, at least one per rank of the process, else host"

// SelectExchange resolves the exchange parameter for a run of ranks
// ranks, of which localRanks share this machine (ranks in one process:
// all of them; under mpirun: those on this node, or 1 where unknown), on
// the given backend ("cuda" or another). It returns the mode and, for
// auto, why it was chosen. "device" fails with the reason when the device
// path cannot run; "auto" then chooses host. One rank always exchanges
// nothing, so it gets host.
func SelectExchange(param string, cudaBackend bool, ranks, localRanks int) (mode, why string, err error) {
	switch param {
	case "", ExchangeAuto, ExchangeDevice, ExchangeHost:
	default:
		return "", "", fmt.Errorf("exchange %q: want auto, device or host", param)
	}
	if param == ExchangeHost {
		return ExchangeHost, "asked for", nil
	}
	reason := deviceExchangeBlocker(cudaBackend, ranks, localRanks)
	if param == ExchangeDevice {
		if reason != nil {
			return "", "", fmt.Errorf("exchange = \"device\": %w", reason)
		}
		return ExchangeDevice, "asked for", nil
	}
	if reason != nil {
		return ExchangeHost, reason.Error(), nil
	}
	return ExchangeDevice, "NCCL and a GPU per rank present", nil
}

// deviceExchangeBlocker says why the device path cannot run, or nil.
func deviceExchangeBlocker(cudaBackend bool, ranks, localRanks int) error {
	if !cudaBackend {
		return errors.New("the device path needs the cuda backend")
	}
	if ranks < 2 {
		return errors.New("one rank exchanges nothing")
	}
	v, err := NCCLVersion()
	if err != nil {
		return err
	}
	rt, err := cuda.LoadRuntime()
	if err != nil {
		return err
	}
	n, err := rt.DeviceCount()
	if err != nil {
		return fmt.Errorf("no usable CUDA device: %w", err)
	}
	if n < 2 {
		return fmt.Errorf("%d GPU on this machine", n)
	}
	if localRanks > n && v < ncclSharedGPUVersion {
		return fmt.Errorf("%d ranks on %d GPUs, and NCCL %s holds one rank per GPU", localRanks, n, ncclVersionString(v))
	}
	return nil
}
