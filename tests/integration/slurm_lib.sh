# A one-node Slurm cluster on 127.0.0.1 (Debian's munge, slurmctld and slurmd), for the
# tests that submit jobs. Source after lib.sh and registry_lib.sh (free_port); needs root.
#   slurm_missing                     why no cluster can be started here, or nothing
#   start_slurm DIR [GPUS]            its own munge key and socket, slurm.conf in DIR, the
#                                     node "localhost" with this machine's CPUs and memory and
#                                     GPUS generic gpu resources (default 1, none for 0);
#                                     exports SLURM_CONF so sbatch and srun use it
#   stop_slurm                        stops the daemons by their PIDs

slurm_pids=()
slurm_dir=

slurm_missing() {
  [[ $(id -u) == 0 ]] || { echo "not root: slurmd runs jobs as root here"; return; }
  local program
  for program in munged slurmctld slurmd sbatch srun; do
    command -v "$program" >/dev/null ||
      { echo "$program is not installed (Debian packages munge, slurmctld, slurmd, slurm-client)"; return; }
  done
}

start_slurm() { # start_slurm DIR [GPUS]
  slurm_dir=$1
  local gpus=${2:-1}
  mkdir -p "$slurm_dir/munge" "$slurm_dir/state" "$slurm_dir/spool"
  chmod 700 "$slurm_dir/munge"
  head -c 1024 /dev/urandom >"$slurm_dir/munge/munge.key"
  chmod 400 "$slurm_dir/munge/munge.key"
  local socket=$slurm_dir/munge/munge.socket
  munged --foreground --force --key-file="$slurm_dir/munge/munge.key" --socket="$socket" \
    --pid-file="$slurm_dir/munge/munged.pid" --log-file="$slurm_dir/munge/munged.log" \
    --seed-file="$slurm_dir/munge/munged.seed" &
  slurm_pids+=($!)
  for _ in $(seq 50); do [[ -S "$socket" ]] && break; sleep 0.1; done
  [[ -S "$socket" ]] || { cat "$slurm_dir/munge/munged.log" >&2; fail "munged did not start"; }

  local cpus memory gres=
  cpus=$(nproc --all)
  memory=$(($(awk '/^MemTotal:/ {print $2}' /proc/meminfo) / 1024 - 512))
  if ((gpus > 0)); then
    gres="Gres=gpu:$gpus"
    # Slurm 22.05 drops a gpu resource without a device file ("Removing file-less GPU");
    # /dev/null stands in for one, so jobs get --gres=gpu:N and CUDA_VISIBLE_DEVICES.
    echo "NodeName=localhost Name=gpu Count=$gpus File=/dev/null" >"$slurm_dir/gres.conf"
  fi
  cat >"$slurm_dir/slurm.conf" <<CONF
ClusterName=dlenvtest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
StateSaveLocation=$slurm_dir/state
SlurmdSpoolDir=$slurm_dir/spool
SlurmctldPidFile=$slurm_dir/slurmctld.pid
SlurmdPidFile=$slurm_dir/slurmd.pid
SlurmctldLogFile=$slurm_dir/slurmctld.log
SlurmdLogFile=$slurm_dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
GresTypes=gpu
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory $gres State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$slurm_dir/slurm.conf
  slurmctld -D -i -f "$SLURM_CONF" >>"$slurm_dir/slurmctld.out" 2>&1 &
  slurm_pids+=($!)
  slurmd -D -N localhost -f "$SLURM_CONF" >>"$slurm_dir/slurmd.out" 2>&1 &
  slurm_pids+=($!)
  for _ in $(seq 100); do
    [[ $(sinfo -h -N -o '%T' 2>/dev/null) == idle ]] && return 0
    sleep 0.2
  done
  cat "$slurm_dir"/*.log "$slurm_dir"/*.out >&2 || true
  fail "the Slurm node did not come up idle"
}

stop_slurm() {
  local pid
  for pid in "${slurm_pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${slurm_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  slurm_pids=()
}
